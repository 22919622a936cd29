use super::*;
use std::fs;

fn skill(dir: &Path) -> PathBuf {
    let base = dir.join("greet");
    fs::create_dir_all(base.join("scripts/deep")).expect("mkdir");
    fs::write(
        base.join("SKILL.md"),
        "---\nname: greet\ndescription: Says hi\nlicense: MIT\nmetadata:\n  version: \"1.0\"\n---\nBody\n",
    )
    .expect("write");
    fs::write(base.join("scripts/run.sh"), "echo hi\n").expect("write");
    fs::write(base.join("scripts/deep/x.bin"), [0u8, 159, 146, 150]).expect("write");
    fs::write(base.join(".env"), "SECRET=1").expect("write");
    base
}

#[test]
fn manifest_lists_every_file_with_size_and_digest_of_its_bytes() {
    let tmp = tempfile::tempdir().expect("tmp");
    let base = skill(tmp.path());
    let manifest = file_manifest(&base).expect("manifest");
    let paths: Vec<&str> = manifest.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, ["SKILL.md", "scripts/deep/x.bin", "scripts/run.sh"]);
    for file in &manifest.files {
        let bytes = fs::read(base.join(&file.path)).expect("read");
        assert_eq!(file.size, bytes.len() as u64);
        assert_eq!(file.digest, crate::lock::file_digest(&bytes));
        assert!(crate::lock::is_sha256_digest(&file.digest));
    }
    assert_eq!(
        manifest.total_bytes,
        manifest.files.iter().map(|f| f.size).sum::<u64>()
    );
}

#[test]
fn hidden_files_are_neither_listed_nor_readable() {
    let tmp = tempfile::tempdir().expect("tmp");
    let base = skill(tmp.path());
    let manifest = file_manifest(&base).expect("manifest");
    assert!(manifest.get(".env").is_none());
    assert!(matches!(
        read_skill_file(&base, ".env"),
        Err(SkillFilesError::NotInSkill { .. })
    ));
}

#[test]
fn reads_are_confined_to_the_skill_directory() {
    let tmp = tempfile::tempdir().expect("tmp");
    let base = skill(tmp.path());
    fs::write(tmp.path().join("outside.txt"), "secret").expect("write");
    for bad in [
        "../outside.txt",
        "scripts/../../outside.txt",
        "/etc/passwd",
        "",
        "scripts//run.sh",
        "scripts\\run.sh",
        "./SKILL.md",
        "scripts",
    ] {
        assert!(
            matches!(
                read_skill_file(&base, bad),
                Err(SkillFilesError::NotInSkill { .. })
            ),
            "{bad} was served"
        );
    }
    assert_eq!(
        read_skill_file(&base, "scripts/run.sh").expect("read"),
        b"echo hi\n"
    );
}

#[cfg(unix)]
#[test]
fn symbolic_links_are_not_listed_or_followed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let base = skill(tmp.path());
    fs::write(tmp.path().join("outside.txt"), "secret").expect("write");
    std::os::unix::fs::symlink(tmp.path().join("outside.txt"), base.join("link.txt")).expect("ln");
    std::os::unix::fs::symlink(tmp.path(), base.join("up")).expect("ln");
    let manifest = file_manifest(&base).expect("manifest");
    assert!(manifest.get("link.txt").is_none());
    assert!(!manifest.files.iter().any(|f| f.path.starts_with("up/")));
    assert!(read_skill_file(&base, "link.txt").is_err());
    assert!(read_skill_file(&base, "up/outside.txt").is_err());
}

#[test]
fn the_512_file_limit_is_inclusive() {
    let tmp = tempfile::tempdir().expect("tmp");
    let base = tmp.path().join("many");
    fs::create_dir_all(&base).expect("mkdir");
    fs::write(
        base.join("SKILL.md"),
        "---\nname: many\ndescription: d\n---\n",
    )
    .expect("write");
    for i in 0..MAX_SKILL_FILES - 1 {
        fs::write(base.join(format!("f{i}.txt")), "x").expect("write");
    }
    assert_eq!(file_manifest(&base).expect("at the limit").files.len(), 512);
    fs::write(base.join("one-more.txt"), "x").expect("write");
    let err = file_manifest(&base).expect_err("over the limit");
    assert!(
        matches!(err, SkillFilesError::TooManyFiles { limit: 512, .. }),
        "{err}"
    );
}

#[test]
fn the_16_mib_limit_is_inclusive() {
    let tmp = tempfile::tempdir().expect("tmp");
    let base = tmp.path().join("big");
    fs::create_dir_all(&base).expect("mkdir");
    let skill_md = b"---\nname: big\ndescription: d\n---\n";
    fs::write(base.join("SKILL.md"), skill_md).expect("write");
    let rest = MAX_SKILL_BYTES as usize - skill_md.len();
    fs::write(base.join("data.bin"), vec![7u8; rest]).expect("write");
    assert_eq!(
        file_manifest(&base).expect("at the limit").total_bytes,
        MAX_SKILL_BYTES
    );
    fs::write(base.join("data.bin"), vec![7u8; rest + 1]).expect("write");
    let err = file_manifest(&base).expect_err("over the limit");
    assert!(matches!(err, SkillFilesError::TooLarge { .. }), "{err}");
    assert!(err.to_string().contains("16 MiB"), "{err}");
}

#[test]
fn frontmatter_is_every_field_as_written() {
    let text = b"---\nname: greet\ndescription: Says hi\nlicense: MIT\nx-custom: [1, two]\nmetadata:\n  version: \"1.0\"\n  n: 3\n---\nBody\n";
    let map = frontmatter_json(Path::new("SKILL.md"), text).expect("frontmatter");
    let keys: Vec<&str> = map.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["name", "description", "license", "x-custom", "metadata"]
    );
    assert_eq!(map["x-custom"], serde_json::json!([1, "two"]));
    assert_eq!(
        map["metadata"],
        serde_json::json!({"version": "1.0", "n": 3})
    );
}

#[test]
fn frontmatter_without_name_or_description_or_fences_is_refused() {
    for bad in [
        &b"no frontmatter"[..],
        b"---\nname: a\n---\n",
        b"---\ndescription: d\n---\n",
        b"---\nname: [a]\ndescription: d\n---\n",
        b"---\nname: a\ndescription: d\n",
        b"---\n- a\n---\n",
        b"---\nname: a\ndescription: \"unterminated\n---\n",
        b"\xff\xfe---\n",
    ] {
        let err = frontmatter_json(Path::new("x/SKILL.md"), bad).expect_err("refused");
        assert!(
            err.to_string().starts_with("x/SKILL.md: frontmatter"),
            "{err}"
        );
    }
}

#[test]
fn verification_checks_size_then_digest() {
    let bytes = b"hello";
    let digest = crate::lock::file_digest(bytes);
    assert!(verify_bytes("s:u", bytes, 5, &digest).is_ok());
    assert!(matches!(
        verify_bytes("s:u", bytes, 6, &digest),
        Err(SkillFilesError::SizeMismatch {
            expected: 6,
            size: 5,
            ..
        })
    ));
    assert!(matches!(
        verify_bytes("s:u", b"hellO", 5, &digest),
        Err(SkillFilesError::DigestMismatch { .. })
    ));
}

#[test]
fn directory_children_come_from_the_manifest() {
    let tmp = tempfile::tempdir().expect("tmp");
    let manifest = file_manifest(&skill(tmp.path())).expect("manifest");
    assert!(manifest.is_directory(""));
    assert!(manifest.is_directory("scripts"));
    assert!(manifest.is_directory("scripts/deep"));
    assert!(!manifest.is_directory("scripts/run.sh"));
    assert!(!manifest.is_directory("script"));
    assert_eq!(
        manifest.children(""),
        [
            ("SKILL.md".to_string(), false),
            ("scripts".to_string(), true)
        ]
    );
    assert_eq!(
        manifest.children("scripts"),
        [("deep".to_string(), true), ("run.sh".to_string(), false)]
    );
}

#[test]
fn spec_names() {
    for ok in ["a", "pdf-processing", "v2", "ünï"] {
        assert!(is_spec_name(ok), "{ok}");
    }
    for bad in [
        "",
        "-a",
        "a-",
        "a--b",
        "Abc",
        "a_b",
        "a/b",
        "a.b",
        &"a".repeat(65),
    ] {
        assert!(!is_spec_name(bad), "{bad}");
    }
}
