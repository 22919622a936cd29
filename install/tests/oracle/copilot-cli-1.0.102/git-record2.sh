#!/bin/bash
# GitHub Copilot CLI 1.0.102, git marketplace update and remove, offline (insteadOf).
W=/tmp/plug3-w6; OUT=/tmp/plug3-o/cop2; rm -rf $W $OUT; mkdir -p $W/home $W/project $OUT
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
$P plugin marketplace add https://git.example.test/market.git > $OUT/add-again.txt 2>&1
$P plugin install tools@acme > $OUT/install.txt 2>&1
$P plugin disable tools@acme > $OUT/disable.txt 2>&1
cp $C/settings.json $OUT/settings-disable.json; cp $C/config.json $OUT/config-disable.json
$P plugin enable tools@acme > $OUT/enable.txt 2>&1
cp $C/settings.json $OUT/settings-enable.json; cp $C/config.json $OUT/config-enable.json
(cd $M && echo '{"name": "tools", "version": "1.1.0"}' > plugins/tools/.claude-plugin/plugin.json && $G commit -qam two && git push -q ../market.git main)
$P plugin marketplace update acme > $OUT/mupdate.txt 2>&1
(cd $C/.cache/copilot/marketplaces/*market-git && git rev-parse HEAD; cat .git/shallow) > $OUT/clone-after-mupdate.txt
cp $C/config.json $OUT/config-mupdate.json; files files-mupdate.txt
$P plugin update tools@acme > $OUT/pupdate.txt 2>&1
cp $C/config.json $OUT/config-pupdate.json; cat $C/installed-plugins/acme/tools/.claude-plugin/plugin.json > $OUT/tools-after-pupdate.json
$P plugin uninstall tools@acme > $OUT/uninstall.txt 2>&1
$P plugin marketplace remove acme > $OUT/mremove.txt 2>&1
cp $C/settings.json $OUT/settings-mremove.json; cp $C/config.json $OUT/config-mremove.json; files files-mremove.txt
cp $C/.cache/copilot/marketplaces/freshness.json $OUT/freshness-mremove.json 2>/dev/null
