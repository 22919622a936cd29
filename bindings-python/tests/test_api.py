"""The Python surface: classes, attributes, values, reprs, errors, events."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

import skilldeck


def test_load_gives_an_iterable_indexable_catalog(make_deck):
    catalog = make_deck().load()
    ids = [skill.id for skill in catalog]
    assert "pdf" in ids and "docx" in ids
    assert len(catalog) == len(ids)
    assert "pdf" in catalog and "nope" not in catalog
    assert catalog["pdf"].id == "pdf"
    assert catalog[0] == catalog.skills[0]
    assert catalog[-1] == catalog.skills[-1]
    assert catalog.get("nope") is None
    assert catalog.profile == "universal"
    assert isinstance(catalog.skills, list)


def test_skill_exposes_identity_paths_and_manifest_fields(make_deck, tree: Path):
    skill = make_deck().load()["pdf"]
    assert skill.name == "pdf"
    assert skill.description == "Extract text and tables from PDF files."
    assert isinstance(skill.location, Path)
    assert skill.location == tree / "project" / ".agents" / "skills" / "pdf" / "SKILL.md"
    assert skill.base_dir == skill.location.parent
    assert skill.scope == "project"
    assert skill.kind == "skill"
    assert skill.license == "MIT"
    assert skill.allowed_tools == ["Read", "Bash(pdftotext:*)"]
    assert skill.metadata == {"author": "someone"}
    assert skill.tags == ["documents", "pdf"]
    assert skill.extra == {"source": "internal"}
    assert skill.manifest.name == "pdf"
    assert skill.manifest.extra == skill.extra
    assert skill.requires is None and skill.parameters == []
    assert skill.status.enabled is True
    assert skill.status.permission in ("allow", "ask", "deny")


def test_model_visible_respects_disable_model_invocation(make_deck):
    catalog = make_deck().load()
    visible = [s.id for s in catalog.model_visible()]
    listed = [s.id for s in catalog.listed()]
    assert "pdf" in visible
    assert "docx" not in visible
    assert "docx" in listed
    assert catalog["docx"].status.model_invocable is False


def test_one_broken_skill_does_not_hide_the_others(make_deck):
    catalog = make_deck().load()
    problems = list(catalog.diagnostics) + [d for s in catalog for d in s.diagnostics]
    assert problems, "the broken SKILL.md must be reported"
    for diagnostic in problems:
        assert isinstance(diagnostic, skilldeck.Diagnostic)
        assert diagnostic.code and diagnostic.severity in ("error", "warning", "info")
    assert "pdf" in catalog and "docx" in catalog


def test_to_dict_is_the_canonical_form(make_deck):
    catalog = make_deck().load()
    as_dict = catalog.to_dict()
    assert set(as_dict) == {"profile", "skills", "shadowed", "diagnostics"}
    assert as_dict["skills"] == [s.to_dict() for s in catalog]
    pdf = catalog["pdf"].to_dict()
    # manifest keys are kebab-case as written in SKILL.md; engine fields snake_case
    assert pdf["manifest"]["allowed-tools"] == ["Read", "Bash(pdftotext:*)"]
    assert pdf["base_dir"] == str(catalog["pdf"].base_dir)
    assert pdf["status"] == catalog["pdf"].status.to_dict()


def test_objects_compare_by_value_and_have_readable_reprs(make_deck):
    first, second = make_deck().load(), make_deck().load()
    assert first == second
    assert first["pdf"] == second["pdf"]
    assert first["pdf"] != first["docx"]
    assert first["pdf"].status == second["pdf"].status
    assert repr(first["pdf"]).startswith("Skill(id='pdf', scope='project'")
    assert repr(first).startswith("Catalog(profile='universal', skills=")
    assert "Manifest(name='pdf'" in repr(first["pdf"].manifest)


def test_parse_and_validate():
    parsed = skilldeck.parse("---\nname: pdf\ndescription: Extract text.\n---\n# PDF\n")
    assert parsed.manifest.name == "pdf"
    assert parsed.body_line == 5
    assert parsed.ok
    assert parsed == skilldeck.parse("---\nname: pdf\ndescription: Extract text.\n---\n# PDF\n")
    assert parsed.to_dict()["manifest"] == {"name": "pdf", "description": "Extract text."}
    bad = skilldeck.parse("no frontmatter at all")
    assert not bad.ok and bad.diagnostics


def test_validate_reports_per_skill(tree: Path):
    reports = skilldeck.validate(tree / "project" / ".agents" / "skills" / "pdf")
    assert len(reports) == 1
    report = reports[0]
    assert isinstance(report.path, Path)
    assert report.valid is True and bool(report) is True
    strict = skilldeck.validate(tree / "project" / ".agents" / "skills" / "pdf", strict=True)
    # `tags` and `source` are not spec fields: strict mode flags them.
    assert strict[0].valid is False
    assert all(isinstance(d, skilldeck.Diagnostic) for d in strict[0].diagnostics)


def test_not_found_is_a_lookup_error_with_code(make_deck):
    deck = make_deck()
    with pytest.raises(skilldeck.NotFoundError) as info:
        deck.get("nope")
    err = info.value
    assert isinstance(err, skilldeck.SkillError)
    assert isinstance(err, LookupError)
    assert err.code == "NOT_FOUND"
    assert err.path is None
    assert "nope" in str(err)
    with pytest.raises(skilldeck.NotFoundError):
        deck.load()["nope"]
    with pytest.raises(IndexError):
        deck.load()[1000]


def test_invalid_options_is_a_value_error_with_code(make_deck):
    with pytest.raises(skilldeck.InvalidOptionsError) as info:
        make_deck().render(format="no-such-format")
    assert info.value.code == "INVALID_OPTIONS"
    assert isinstance(info.value, ValueError)
    with pytest.raises(skilldeck.InvalidOptionsError):
        skilldeck.PermissionRules({"semantics": "coin-toss"})
    with pytest.raises(skilldeck.InvalidOptionsError):
        make_deck().activate("pdf", format="no-such-format")
    with pytest.raises(TypeError):
        skilldeck.Deck(roots=[object()])


def test_rules_fail_closed_and_read_host_shapes(make_deck):
    # An unknown key is refused, never read as "no rules" (which would deny nothing).
    for bad in ({"rulez": 5}, {"skill": {"internal-*": "deny"}}, {"rules": [], "permission": {}}):
        with pytest.raises(skilldeck.InvalidOptionsError) as info:
            skilldeck.PermissionRules(bad)
        assert info.value.code == "INVALID_OPTIONS"
    with pytest.raises(skilldeck.InvalidOptionsError, match=r"rules\[0\]\.decision"):
        make_deck(rules={"rules": [{"pattern": "*", "decision": "block"}]})
    with pytest.raises(skilldeck.InvalidOptionsError, match="projectdir"):
        skilldeck.Deck(roots=[{"path": ".", "projectdir": "x"}])
    # OpenCode's `permission` object: the last matching rule decides.
    opencode = skilldeck.PermissionRules({"permission": {"skill": {"*": "allow", "internal-*": "deny"}}})
    assert (opencode.semantics, opencode.evaluate("pdf"), opencode.evaluate("internal-db")) == (
        "last-match",
        "allow",
        "deny",
    )
    # Claude Code's `permissions` lists: deny > ask > allow; other tools' entries are skipped.
    claude = skilldeck.PermissionRules(
        {"permissions": {"allow": ["Skill", "Bash(ls)"], "deny": ["Skill(internal:*)"]}}
    )
    assert (claude.semantics, claude.evaluate("pdf"), claude.evaluate("internal:db")) == (
        "deny-first",
        "allow",
        "deny",
    )


def test_permission_denied_is_a_permission_error(make_deck):
    rules = {"semantics": "deny-first", "rules": [{"pattern": "pdf", "decision": "deny"}]}
    deck = make_deck(rules=rules)
    with pytest.raises(skilldeck.PermissionDeniedError) as info:
        deck.activate("pdf")
    assert info.value.code == "PERMISSION_DENIED"
    assert isinstance(info.value, PermissionError)


def test_exception_hierarchy_and_pickling():
    pairs = {
        skilldeck.ParseError: ValueError,
        skilldeck.ValidationError: ValueError,
        skilldeck.NotFoundError: LookupError,
        skilldeck.PermissionDeniedError: PermissionError,
        skilldeck.IoError: OSError,
        skilldeck.InvalidOptionsError: ValueError,
        skilldeck.InternalError: RuntimeError,
    }
    for cls, builtin in pairs.items():
        assert issubclass(cls, skilldeck.SkillError) and issubclass(cls, builtin)
    err = skilldeck.IoError("cannot read", "IO_ERROR", Path("a/SKILL.md"))
    assert err.path == "a/SKILL.md" and err.code == "IO_ERROR"
    again = pickle.loads(pickle.dumps(err))
    assert (type(again), again.code, again.path, str(again)) == (
        skilldeck.IoError,
        "IO_ERROR",
        "a/SKILL.md",
        "cannot read",
    )


def test_permission_rules_object():
    rules = skilldeck.PermissionRules(
        {
            "semantics": "last-match",
            "rules": [{"pattern": "*", "decision": "ask"}, {"pattern": "pdf*", "decision": "allow"}],
            "agents": {"review": [{"pattern": "*", "decision": "deny"}]},
        }
    )
    assert rules.evaluate("pdf-tools") == "allow"
    assert rules.evaluate("docx") == "ask"
    assert rules.evaluate("pdf", agent="review") == "deny"
    assert rules.tool_disabled(agent="review") is True
    assert rules.tool_disabled() is False
    assert rules == skilldeck.PermissionRules(rules.to_dict())
    assert skilldeck.PermissionRules(rules) == rules
    assert rules.semantics == "last-match"
    assert skilldeck.PermissionRules().rules == []


def test_render_and_activate(make_deck, tree: Path):
    deck = make_deck()
    rendered = deck.render()
    assert "pdf" in rendered.text and str(rendered) == rendered.text
    assert "pdf" in rendered.report.included
    assert rendered.report.chars == len(rendered.text)
    activation = deck.activate("pdf", args="report.pdf")
    assert "pdftotext report.pdf" in activation.body
    assert activation.base_dir == tree / "project" / ".agents" / "skills" / "pdf"
    assert activation.to_dict()["id"] == "pdf"
    assert activation.permission == "allow" == activation.to_dict()["permission"]


def test_activation_states_ask_and_takes_the_expansion_opt_ins(make_deck, tree: Path):
    rules = {"semantics": "last-match", "rules": [{"pattern": "pdf", "decision": "ask"}]}
    asked = make_deck(rules=rules).activate("pdf")
    assert asked.permission == "ask"
    assert asked.text.startswith("Permission: ask (rule `pdf -> ask`)")
    skill = tree / "project" / ".agents" / "skills" / "pdf"
    (skill / "notes.md").write_text("NOTES\n", encoding="utf-8")
    (skill / "SKILL.md").write_text(
        "---\nname: pdf\ndescription: d\n---\nSee @notes.md\nSay !`echo hi`\n", encoding="utf-8"
    )
    deck = make_deck()
    plain = deck.activate("pdf")
    assert "@notes.md" in plain.body and "!`echo hi`" in plain.body
    expanded = deck.activate("pdf", read_files=True, allow_commands=["echo"])
    assert "NOTES" in expanded.body and "Say hi" in expanded.body


def test_search_ranks_skills_and_names_matched_fields(make_deck, tree: Path):
    deck = make_deck()
    results = deck.search("extract pdf tables")
    assert isinstance(results, skilldeck.SearchResults)
    assert results.query == "extract pdf tables"
    assert [h.id for h in results] == ["pdf"] and len(results) == 1
    assert results.matched == 1 and results.searched >= 1
    hit = results.hits[0]
    assert isinstance(hit, skilldeck.SearchHit)
    assert hit.name == "pdf" and hit.description.startswith("Extract text")
    assert hit.location == tree / "project" / ".agents" / "skills" / "pdf" / "SKILL.md"
    assert hit.matched == ["name", "tags", "description"]
    assert hit.score > 0 and hit.bm25 == hit.score and hit.similarity is None
    assert results.to_dict()["hits"][0]["id"] == "pdf"
    assert "similarity" not in results.to_dict()["hits"][0]
    assert results == deck.search("extract pdf tables") and results != deck.search("pdf")
    assert repr(results).startswith("SearchResults(query='extract pdf tables', hits=['pdf']")
    assert repr(hit).startswith("SearchHit(id='pdf', score=")
    assert repr(hit).endswith("matched=['name', 'tags', 'description'])")
    # Hidden from the model: found only with all=True.
    assert deck.search("edit word").hits == []
    assert [h.id for h in deck.search("edit word", all=True)] == ["docx"]


def test_search_hybrid_and_bad_options(make_deck):
    deck = make_deck()
    results = deck.search(
        "pdf", query_embedding=[1.0, 0.0], embeddings={"pdf": [0.0, 1.0], "docx": [1, 0]}
    )
    assert {h.id: h.similarity for h in results.hits} == {"pdf": 0.0}
    for bad in (
        dict(limit=0),
        dict(limit=-1),
        dict(limit=1001),
        dict(query_embedding=[1.0], embeddings={"pdf": [1.0, 2.0]}),
        dict(embeddings={"pdf": [1.0]}),
    ):
        with pytest.raises(skilldeck.InvalidOptionsError) as err:
            deck.search("pdf", **bad)
        assert err.value.code == "INVALID_OPTIONS"
    with pytest.raises(skilldeck.InvalidOptionsError):
        deck.search("   ")
    with pytest.raises(TypeError):
        deck.search("pdf", 5)  # type: ignore[misc]


def test_search_tool_definition():
    tool = skilldeck.search_tool_definition()
    assert tool["name"] == "search_skills"
    assert tool["parameters"]["required"] == ["query"]
    assert tool["parameters"]["properties"]["limit"]["maximum"] == 1000


def test_render_for_a_query_keeps_pinned_and_says_why(make_deck):
    deck = make_deck()
    rendered = deck.render(query="pdf", pinned=["nope"])
    assert rendered.report.included == ["pdf"]
    assert rendered.report.reasons == {"nope": "pinned, but not visible to the model"}
    assert deck.render().report.reasons == {}


def test_events_reach_subscribers_until_unsubscribed(make_deck):
    deck = make_deck()
    seen = []
    sub = deck.subscribe(seen.append)
    deck.load()
    deck.activate("pdf")
    kinds = [event["type"] for event in seen]
    assert "registered" in kinds
    assert {"type": "activated", "id": "pdf", "agent": None} in seen
    assert deck.unsubscribe(sub) is True
    assert deck.unsubscribe(sub) is False
    before = len(seen)
    deck.activate("pdf")
    assert len(seen) == before


def test_a_failing_callback_is_reported_not_raised(make_deck, monkeypatch):
    reported = []
    monkeypatch.setattr("sys.unraisablehook", reported.append)
    deck = make_deck()

    def explode(event):
        raise RuntimeError("callback bug")

    deck.subscribe(explode)
    deck.load()
    assert reported and isinstance(reported[0].exc_value, RuntimeError)


def test_reload_reports_changes(make_deck, tree: Path):
    import os

    deck = make_deck()
    deck.load()
    assert not deck.reload()
    skill = tree / "project" / ".agents" / "skills" / "xlsx" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text("---\nname: xlsx\ndescription: Spreadsheets.\n---\n", encoding="utf-8")
    stat = skill.stat()
    os.utime(skill, (stat.st_atime + 2, stat.st_mtime + 2))
    diff = deck.reload()
    assert diff.added == ["xlsx"] and bool(diff)
    assert diff == diff and diff.to_dict() == {"added": ["xlsx"], "removed": [], "changed": []}


def test_load_once_equals_load_and_keeps_nothing(make_deck, tree: Path):
    import os

    once = make_deck().load_once()
    assert once.to_dict() == make_deck().load().to_dict()
    deck = make_deck()
    deck.load_once()
    skill = tree / "project" / ".agents" / "skills" / "xlsx" / "SKILL.md"
    skill.parent.mkdir()
    skill.write_text("---\nname: xlsx\ndescription: Spreadsheets.\n---\n", encoding="utf-8")
    stat = skill.stat()
    os.utime(skill, (stat.st_atime + 2, stat.st_mtime + 2))
    # Nothing was kept to compare with: the next load discovers again and sees the skill.
    assert "xlsx" in deck.load()


def test_load_summary_lists_like_load_once_and_drops_the_rest(make_deck, tree: Path):
    rich = tree / "project" / ".agents" / "skills" / "rich" / "SKILL.md"
    rich.parent.mkdir()
    rich.write_text(
        "---\nname: rich\ndescription: Fields a listing does not show.\nlicense: MIT\n"
        "metadata:\n  author: someone\nenabled: false\nextra-key: 1\n---\nBody\n",
        encoding="utf-8",
    )
    deck = make_deck()
    full = deck.load_once()
    summary = deck.load_summary()

    def listing(catalog):
        data = catalog.to_dict()
        for skill in data["skills"]:
            skill.pop("manifest")
            skill.pop("diagnostics", None)
        return data

    assert listing(summary) == listing(full)
    kept = summary.get("rich")
    assert kept.description == "Fields a listing does not show."
    assert kept.manifest.license is None and kept.manifest.metadata == {}
    assert kept.manifest.enabled is False and not kept.status.enabled
    assert kept.diagnostics == []
    assert full.get("rich").manifest.license == "MIT"
    assert any(d.code == "unknown-key" for d in full.get("rich").diagnostics)
    # Not the deck's snapshot: a lookup afterwards sees the whole skill.
    assert deck.get("rich").manifest.license == "MIT"


def test_deck_options_and_roots(make_deck, tree: Path):
    extra = tree / "extra"
    (extra / "lint").mkdir(parents=True)
    (extra / "lint" / "SKILL.md").write_text("---\nname: lint\ndescription: Lint.\n---\n")
    deck = make_deck(roots=[extra])
    assert deck.load()["lint"].scope == "extra"
    deck = make_deck(roots=[{"path": extra, "scope": "user"}], disable=["docx"])
    catalog = deck.load()
    assert catalog["lint"].scope == "user"
    assert catalog["docx"].status.enabled is False
    assert deck.options["disable"] == ["docx"]
    assert repr(deck).startswith("Deck(profile='universal'")


def test_version():
    assert skilldeck.version() == skilldeck.VERSION == skilldeck.__version__


# Issue 23: no silent empties, one error model.


def test_missing_or_file_project_dir_is_a_catalog_warning(tmp_path: Path):
    missing = tmp_path / "nowhere"
    catalog = skilldeck.Deck(
        project_dir=missing, home_dir=tmp_path, env={}, system_root=tmp_path
    ).load()
    codes = [(d.code, d.severity, d.path) for d in catalog.diagnostics]
    assert codes == [("project-dir-missing", "warning", missing)]
    assert catalog.diagnostics[0].hint
    file = tmp_path / "notes.txt"
    file.write_text("x")
    catalog = skilldeck.Deck(
        project_dir=file, home_dir=tmp_path, env={}, system_root=tmp_path
    ).load()
    assert [d.code for d in catalog.diagnostics] == ["project-dir-not-a-directory"]


def test_enable_and_disable_selectors_that_match_nothing_are_warned(make_deck):
    catalog = make_deck(enable=["pfd"], disable=["nope-*", "docx"]).load()
    warned = [(d.code, d.message) for d in catalog.diagnostics if "matches-nothing" in d.code]
    assert [code for code, _ in warned] == ["enable-matches-nothing", "disable-matches-nothing"]
    assert "`pfd`" in warned[0][1] and "`nope-*`" in warned[1][1]
    assert not catalog["docx"].status.enabled


def test_positional_deck_arguments_are_refused_with_what_to_write():
    with pytest.raises(skilldeck.InvalidOptionsError) as info:
        skilldeck.Deck("claude-code")
    assert info.value.code == "INVALID_OPTIONS"
    assert 'write Deck(profile="claude-code")' in str(info.value)
    with pytest.raises(skilldeck.InvalidOptionsError, match="project_dir="):
        skilldeck.Deck("/some/dir")


def test_negative_and_huge_numbers_are_invalid_options(make_deck):
    deck = make_deck()
    for kwargs in (
        {"budget_chars": -1},
        {"budget_tokens": -5},
        {"budget_chars": 10_000_001},
        {"budget_tokens": 2**40},
        {"usage": {"pdf": -1}},
    ):
        with pytest.raises(skilldeck.InvalidOptionsError) as info:
            deck.render(**kwargs)
        assert info.value.code == "INVALID_OPTIONS", kwargs
    with pytest.raises(skilldeck.InvalidOptionsError, match="non-negative"):
        deck.render(budget_chars=-1)
    assert deck.render(budget_chars=10_000_000).text
    with pytest.raises(skilldeck.InvalidOptionsError):
        deck.search("pdf", limit=-1)
    assert deck.unsubscribe(-1) is False


def test_activation_arguments_are_capped(make_deck):
    deck = make_deck()
    with pytest.raises(skilldeck.InvalidOptionsError, match="1 MiB"):
        deck.activate("pdf", args="x" * (1024 * 1024 + 1))
    with pytest.raises(skilldeck.InvalidOptionsError):
        deck.activate("pdf", vars={"BIG": "x" * (1024 * 1024 + 1)})
    assert "x" * 1000 in deck.activate("pdf", args="x" * 1000).text


def test_a_non_callable_subscriber_is_refused_at_subscribe(make_deck):
    deck = make_deck()
    for bad in (None, 42, "print"):
        with pytest.raises(skilldeck.InvalidOptionsError, match="callable"):
            deck.subscribe(bad)


def test_doctor_explains_a_skill_skipped_for_its_depth(tmp_path):
    deep = tmp_path / ".agents" / "skills" / "group" / "deep"
    deep.mkdir(parents=True)
    (deep / "SKILL.md").write_text("---\nname: deep\ndescription: too deep for qwen\n---\nBody.\n")
    deck = skilldeck.Deck(project_dir=str(tmp_path), profile="qwen-code", home_dir=str(tmp_path / "h"))
    report = deck.doctor(str(deep / "SKILL.md"))
    assert report["profile"] == "qwen-code" and report["skills"] == 0
    target = report["target"]
    assert target["found"] is False
    codes = [f["code"] for f in target["files"][0]["findings"]]
    assert "too-deep" in codes, codes
    # By name: the same file, found by the universal profile (any depth).
    found = skilldeck.Deck(project_dir=str(tmp_path), home_dir=str(tmp_path / "h")).doctor("deep")
    assert found["target"]["found"] is True
    assert found["target"]["files"][0]["found"]["name"] == "deep"


def test_compare_profiles_has_one_cell_per_profile(tmp_path):
    skill = tmp_path / ".claude" / "skills" / "only-claude"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: only-claude\ndescription: d\n---\nBody.\n")
    deck = skilldeck.Deck(project_dir=str(tmp_path), home_dir=str(tmp_path / "h"))
    table = deck.compare_profiles(["claude-code", "codex"])
    assert table["profiles"] == ["claude-code", "codex"]
    (row,) = table["rows"]
    cells = {c["profile"]: c["ok"] for c in row["cells"]}
    assert cells == {"claude-code": True, "codex": False}
    with pytest.raises(skilldeck.InvalidOptionsError):
        deck.compare_profiles(["no-such-profile"])
