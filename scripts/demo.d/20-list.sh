# Discovery: the same tree seen by two hosts. examples/demo has skills in the project and in
# a home directory, a name clash (code-review in both) and a broken SKILL.md. HOME is the
# demo's, never yours.
echo
echo "== skilldeck list --profile universal (every host's directories; project beats user) =="
"$bin" list --profile universal --project "$demo/project" --home "$demo/home" --all
echo
echo "== skilldeck list --profile claude-code --json (only .claude/skills; names from directories) =="
"$bin" list --profile claude-code --project "$demo/project" --home "$demo/home" --json
echo
echo "== skilldeck show code-review (where it came from and what it shadows) =="
"$bin" show code-review --project "$demo/project" --home "$demo/home"
