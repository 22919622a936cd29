echo "== skilldeck validate (lenient: what hosts load; exit status 1 = some skill cannot load) =="
"$bin" validate "$demo" || true
echo
echo "== skilldeck validate --strict (spec conformance, as skills-ref 0.1.1 judges it) =="
"$bin" validate --strict "$demo" || true
