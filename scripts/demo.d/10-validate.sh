echo "== skilldeck validate --strict (spec conformance of every skill in the demo) =="
"$bin" validate --strict "$demo" || true
