#!/bin/bash
# GitHub Copilot CLI 1.0.102 with a git marketplace: add, install, uninstall, offline
# (git's insteadOf maps https://git.example.test/ to bare repositories in $W).
W=/tmp/plug3-w5; OUT=/tmp/plug3-o/cop; rm -rf $W $OUT; mkdir -p $W/home $W/project $OUT
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
git clone -q --bare $M $W/market.git
export HOME=$W/home HTTPS_PROXY=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9
git config --global url."file://$W/".insteadOf https://git.example.test/
mkdir -p $HOME/.cache; cp -r /tmp/plug3-ch/.cache/copilot $HOME/.cache/
P=/tmp/plug3-copilot/node_modules/@github/copilot-linux-x64/copilot
C=$HOME/.copilot
files() { (cd $C && find . -type f -not -path '*/.git/*' -not -path './logs/*' -not -name '*.lock' | sed 's|^\./||' | LC_ALL=C sort) > $OUT/$1; }
cd $W/project
$P plugin marketplace add https://git.example.test/market.git > $OUT/add.txt 2>&1
cp $C/settings.json $OUT/settings-git-add.json; files files-git-add.txt; cp $C/.cache/copilot/marketplaces/freshness.json $OUT/freshness-add.json
(cd $C/.cache/copilot/marketplaces/*market-git && git rev-parse HEAD && cat .git/shallow && git config --local --list) > $OUT/clone-git.txt 2>&1
$P plugin install tools@acme > $OUT/install.txt 2>&1; $P plugin install inline@acme >> $OUT/install.txt 2>&1
cp $C/settings.json $OUT/settings-git-install.json; cp $C/config.json $OUT/config-git-install.json; files files-git-install.txt
$P plugin uninstall tools@acme > $OUT/uninstall.txt 2>&1
cp $C/settings.json $OUT/settings-git-uninstall.json; cp $C/config.json $OUT/config-git-uninstall.json; files files-git-uninstall.txt
$P plugin marketplace remove acme > $OUT/mremove.txt 2>&1   # refused: inline is installed
