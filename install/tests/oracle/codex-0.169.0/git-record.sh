#!/bin/bash
# Codex 0.169.0 with a git marketplace, offline: https://git.example.test/ is rewritten by
# git's insteadOf to file:// bare repositories in $W.
set -e
W=/tmp/plug3-w3; OUT=/tmp/plug3-o/rec; rm -rf $W $OUT; mkdir -p $W/home $W/project $OUT; cd $W
C=/tmp/plug3-codex/node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex
M=$W/market; mkdir -p $M/.claude-plugin $M/plugins/tools/.claude-plugin $M/plugins/tools/skills/pdf $M/plugins/inline/skills/notes
cat > $M/.claude-plugin/marketplace.json <<'J'
{"name": "acme", "owner": {"name": "Acme"}, "plugins": [
 {"name": "tools", "source": "./plugins/tools", "description": "PDF and CSV"},
 {"name": "inline", "source": "./plugins/inline", "strict": false, "version": "0.3.0"}
]}
J
echo '{"name": "tools", "version": "1.0.0"}' > $M/plugins/tools/.claude-plugin/plugin.json
printf -- '---\nname: pdf\ndescription: d\n---\nbody\n' > $M/plugins/tools/skills/pdf/SKILL.md
printf -- '---\nname: notes\ndescription: d\n---\nbody\n' > $M/plugins/inline/skills/notes/SKILL.md
G="git -c user.email=a@b -c user.name=a"
(cd $M && git init -q -b main && git add -A && $G commit -qm one)
git clone -q --bare $M market.git
export HOME=$W/home
git config --global url."file://$W/".insteadOf https://git.example.test/
files() { (cd $HOME/.codex && find . -type f -not -path '*/.git/*' -not -name config.toml | sed 's|^\./||' | LC_ALL=C sort) > $OUT/$1; }
cd project
c() { "$C" "$@" 2>/dev/null; }
c plugin marketplace add https://git.example.test/market.git --json > $OUT/git-add.json
c plugin add tools@acme --json > /dev/null; c plugin add inline@acme --json > /dev/null
cp $HOME/.codex/config.toml $OUT/git-config.toml; files git-files.txt
c plugin marketplace upgrade --json > $OUT/git-upgrade-first.json
cp $HOME/.codex/.tmp/marketplaces/acme/.codex-marketplace-install.json $OUT/git-install-metadata.json
(cd $M && echo '{"name": "tools", "version": "1.1.0"}' > plugins/tools/.claude-plugin/plugin.json && echo more >> plugins/inline/skills/notes/SKILL.md && $G commit -qam two && git push -q ../market.git main)
echo "$(cd $M && git rev-parse HEAD)" > $OUT/revision-two.txt
c plugin marketplace upgrade acme --json > $OUT/git-upgrade-changed.json
files git-files-after-upgrade.txt
cp $HOME/.codex/config.toml $OUT/git-config-after-upgrade.toml
cp $HOME/.codex/.tmp/marketplaces/acme/.codex-marketplace-install.json $OUT/git-install-metadata-after-upgrade.json
cp $HOME/.codex/plugins/cache/acme/inline/0.3.0/skills/notes/SKILL.md $OUT/inline-notes-after-upgrade.md
c plugin marketplace upgrade --json > $OUT/git-upgrade-unchanged.json
c plugin marketplace remove acme --json > $OUT/git-remove.json
cp $HOME/.codex/config.toml $OUT/git-config-after-remove.toml; files git-files-after-remove.txt
