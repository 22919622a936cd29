# Render the demo's skills for the model, then activate one skill with arguments.
# Sourced by scripts/demo (which sets $bin and $demo).
deck=(--home "$demo/home" --project "$demo/project")

echo
echo "== skilldeck render --format xml (the spec's <available_skills> block) =="
"$bin" render "${deck[@]}" --format xml

echo
echo "== skilldeck render --profile codex --format codex --budget-chars 160 --report =="
"$bin" render --profile codex "${deck[@]}" --format codex --budget-chars 160 --report

echo
echo "== skilldeck activate fix-issue --args '1234 \"fix/login bug\"' --format kode =="
"$bin" activate fix-issue "${deck[@]}" --args '1234 "fix/login bug"' --format kode
