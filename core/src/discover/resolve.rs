//! Resolve: settle name clashes by the profile's rule and put the winners in the profile's
//! order. Every loser is reported with the winner's location and the reason.

use super::candidates::Candidate;
use super::profile::{Clash, Order, Profile};
use crate::catalog::{Scope, Shadowed, Skill, SkillKind, Status};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// Winners (as skills) and losers.
///
/// Works on positions into `candidates` and moves each winner out once at the end: a
/// candidate carries its whole manifest, and moving it through intermediate groups cost
/// more than the resolution itself on large trees.
pub fn resolve(
    profile: &Profile,
    mut candidates: Vec<Candidate>,
) -> (Vec<Arc<Skill>>, Vec<Shadowed>) {
    if profile.order == Order::PrecedencePathBytes {
        sort_roots_by_path_bytes(&mut candidates);
    }
    let loose = profile.loose.is_some();
    if loose {
        sort_roots_by_group(&mut candidates);
    }
    let in_place = loose && profile.clash == Clash::FirstWins;
    // Group regular candidates by id, in order of first appearance (precedence order).
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut nested: Vec<usize> = Vec::new();
    {
        let mut by_id: crate::FastMap<Cow<'_, str>, usize> =
            crate::FastMap::with_capacity_and_hasher(candidates.len(), Default::default());
        for (pos, c) in candidates.iter().enumerate() {
            if c.nested_prefix.is_some() {
                nested.push(pos);
                continue;
            }
            let key = if profile.clash_fold_case {
                Cow::Owned(c.id.to_lowercase())
            } else {
                Cow::Borrowed(c.id.as_str())
            };
            match by_id.get(&key) {
                Some(&g) => groups[g].push(pos),
                None => {
                    by_id.insert(key, groups.len());
                    groups.push(vec![pos]);
                }
            }
        }
    }

    let mut winners: Vec<usize> = Vec::with_capacity(groups.len());
    let mut shadowed: Vec<(usize, Shadowed)> = Vec::new();
    for mut group in groups {
        if profile.clash == Clash::KeepAll {
            winners.extend(group);
            continue;
        }
        let pick = if in_place {
            replaced_in_place(&mut candidates, &group)
        } else {
            winner_index(profile, &candidates, &group)
        };
        let winner = group.swap_remove(pick);
        for pos in group {
            let (loser, win) = (&candidates[pos], &candidates[winner]);
            shadowed.push((pos, shadow(loser, win, reason(profile, loser, win))));
        }
        winners.push(winner);
    }

    // Nested skills: a clash gets the directory-qualified id; a clash of that too loses.
    let mut taken: crate::FastMap<crate::SharedStr, usize> = winners
        .iter()
        .map(|&w| (candidates[w].id.clone(), w))
        .collect();
    for pos in nested {
        if taken.contains_key(&candidates[pos].id) {
            let c = &mut candidates[pos];
            if let Some(prefix) = &c.nested_prefix {
                c.id = format!("{prefix}:{}", c.id).into();
            }
        }
        // The earliest winner holding the id (with KeepAll several may share it).
        if let Some(&first) = taken.get(&candidates[pos].id) {
            let w = winners
                .iter()
                .copied()
                .find(|&w| candidates[w].id == candidates[pos].id)
                .unwrap_or(first);
            let (c, w) = (&candidates[pos], &candidates[w]);
            shadowed.push((
                pos,
                shadow(c, w, "an earlier skill has this id".to_string()),
            ));
            continue;
        }
        taken.insert(candidates[pos].id.clone(), pos);
        winners.push(pos);
    }

    match profile.order {
        Order::Precedence | Order::PrecedencePathBytes => winners.sort_by_key(|pos| *pos),
        Order::Id => {
            winners.sort_by(|a, b| candidates[*a].id.cmp(&candidates[*b].id).then(a.cmp(b)))
        }
        Order::ScopeNamePath => {
            let rank: HashMap<Scope, usize> = winners
                .iter()
                .map(|&w| candidates[w].scope)
                .collect::<HashSet<_>>()
                .into_iter()
                .map(|s| (s, profile.scope_rank(s)))
                .collect();
            fn key<'c>(
                rank: &HashMap<Scope, usize>,
                c: &'c Candidate,
            ) -> (usize, &'c str, &'c Path) {
                let r = rank.get(&c.scope).copied().unwrap_or(usize::MAX);
                // The id: a plugin skill's name is `plugin:skill` to Codex.
                (r, c.id.as_str(), &*c.location)
            }
            winners.sort_by(|a, b| key(&rank, &candidates[*a]).cmp(&key(&rank, &candidates[*b])));
        }
    }
    shadowed.sort_by_key(|(pos, _)| *pos);

    let ambiguous: HashSet<String> = if profile.clash == Clash::KeepAll {
        let mut name_counts: HashMap<&str, usize> = HashMap::new();
        for &w in &winners {
            *name_counts.entry(candidates[w].id.as_str()).or_default() += 1;
        }
        name_counts
            .into_iter()
            .filter(|(_, n)| *n > 1)
            .map(|(name, _)| name.to_string())
            .collect()
    } else {
        HashSet::new()
    };
    let mut slots: Vec<Option<Candidate>> = candidates.into_iter().map(Some).collect();
    // Sized up front (`filter_map` gives no lower bound, so collecting would double).
    let mut skills = Vec::with_capacity(winners.len());
    for c in winners
        .into_iter()
        .filter_map(|w| slots.get_mut(w).and_then(Option::take))
    {
        let is_ambiguous = ambiguous.contains(c.id.as_str());
        skills.push(Arc::new(into_skill(c, is_ambiguous)));
    }
    (skills, shadowed.into_iter().map(|(_, s)| s).collect())
}

/// Puts each run of candidates from one root in group order (`loose::GROUP_*`: always-on
/// loose files, other loose files, pattern matches), keeping path order within a group.
fn sort_roots_by_group(candidates: &mut [Candidate]) {
    let mut start = 0;
    while start < candidates.len() {
        let source = &candidates[start].source;
        let len = candidates[start..]
            .iter()
            .take_while(|c| &c.source == source)
            .count();
        candidates[start..start + len].sort_by_key(|c| c.group);
        start += len;
    }
}

/// The winner among the candidates of one name (`group`, in order) in a profile with loose
/// files: the host fills one dict per group of a root and keeps the first dict holding the
/// name, so the last file of the first (root, group) wins, in the first one's place: the
/// two candidates trade places, and the winner is then the first of `group`.
fn replaced_in_place(candidates: &mut [Candidate], group: &[usize]) -> usize {
    let first = &candidates[group[0]];
    let last = group
        .iter()
        .rposition(|&p| candidates[p].source == first.source && candidates[p].group == first.group)
        .unwrap_or(0);
    if last != 0 {
        candidates.swap(group[0], group[last]);
    }
    0
}

/// Re-sorts each run of candidates from one root by the bytes of their path strings; the
/// walk gives them in path-component order, and the roots stay in precedence order.
fn sort_roots_by_path_bytes(candidates: &mut [Candidate]) {
    let mut start = 0;
    while start < candidates.len() {
        let source = &candidates[start].source;
        let len = candidates[start..]
            .iter()
            .take_while(|c| &c.source == source)
            .count();
        candidates[start..start + len].sort_by(|a, b| {
            a.location
                .as_os_str()
                .as_encoded_bytes()
                .cmp(b.location.as_os_str().as_encoded_bytes())
        });
        start += len;
    }
}

fn winner_index(profile: &Profile, candidates: &[Candidate], group: &[usize]) -> usize {
    let kind = |i: usize| candidates[group[i]].kind;
    let last = profile.clash == Clash::LastWins;
    let mut ordered = (0..group.len()).map(|i| if last { group.len() - 1 - i } else { i });
    if profile.skill_beats_command {
        if let Some(i) = ordered.clone().find(|&i| kind(i) == SkillKind::Skill) {
            return i;
        }
    }
    ordered.next().unwrap_or(0)
}

fn reason(profile: &Profile, loser: &Candidate, winner: &Candidate) -> String {
    if winner.kind != loser.kind && profile.skill_beats_command {
        return "a skill beats a command of the same name".to_string();
    }
    if winner.scope != loser.scope {
        return format!("{} beats {}", winner.scope.as_str(), loser.scope.as_str());
    }
    let order = if profile.clash == Clash::LastWins {
        "later"
    } else {
        "earlier"
    };
    if winner.source == loser.source && winner.group == loser.group && profile.loose.is_some() {
        return "same name in the same group of this root; the later file replaces the earlier one in its place".to_string();
    }
    if winner.source == loser.source {
        format!("same name in the same root; the {order} path wins")
    } else {
        format!(
            "same name; the {order} root ({}) wins",
            winner.source.display()
        )
    }
}

/// `reason` is one of a few texts per load: the entries share its buffer.
fn shadow(loser: &Candidate, winner: &Candidate, reason: String) -> Shadowed {
    Shadowed {
        id: loser.id.clone(),
        name: loser.name.clone(),
        location: loser.location.clone(),
        winner: winner.location.clone(),
        reason: crate::SharedStr::interned(&reason),
    }
}

/// The status resolve gives a skill, before the filter stage.
pub(crate) fn resolved_status(ambiguous: bool, name: &str) -> Status {
    let mut status = Status::default();
    if ambiguous {
        status.ambiguous = true;
        status
            .reasons
            .push(format!("another skill is also named `{name}`"));
    }
    status
}

pub(crate) fn into_skill(c: Candidate, ambiguous: bool) -> Skill {
    let status = resolved_status(ambiguous, &c.name);
    Skill {
        id: c.id,
        name: c.name,
        location: c.location,
        base_dir: c.base_dir,
        scope: c.scope,
        source: c.source,
        plugin: c.plugin,
        kind: c.kind,
        manifest: c.manifest,
        diagnostics: c.diagnostics,
        status,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn cand(name: &str, scope: Scope, kind: SkillKind, path: &str) -> Candidate {
        Candidate {
            scope,
            kind,
            source: Path::new(path).parent().unwrap().into(),
            location: path.into(),
            base_dir: PathBuf::from(path).parent().unwrap().to_path_buf().into(),
            name: name.into(),
            id: name.into(),
            plugin: None,
            manifest: Default::default(),
            diagnostics: Vec::new().into(),
            nested_prefix: None,
            group: crate::discover::loose::GROUP_PATTERN,
        }
    }

    fn profile(clash: Clash) -> Profile {
        let mut p = Profile::builtin("universal").unwrap();
        p.clash = clash;
        p
    }

    #[test]
    fn first_wins_reports_losers_with_reason() {
        let (skills, shadowed) = resolve(
            &profile(Clash::FirstWins),
            vec![
                cand("a", Scope::Project, SkillKind::Skill, "/p/a/SKILL.md"),
                cand("a", Scope::User, SkillKind::Skill, "/h/a/SKILL.md"),
                cand("b", Scope::User, SkillKind::Skill, "/h/b/SKILL.md"),
            ],
        );
        assert_eq!(
            skills.iter().map(|s| s.id.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        assert_eq!(shadowed.len(), 1);
        assert_eq!(shadowed[0].location, PathBuf::from("/h/a/SKILL.md"));
        assert_eq!(shadowed[0].winner, PathBuf::from("/p/a/SKILL.md"));
        assert_eq!(shadowed[0].reason, "project beats user");
    }

    #[test]
    fn last_wins_and_keep_all() {
        let input = || {
            vec![
                cand("a", Scope::User, SkillKind::Skill, "/h/a/SKILL.md"),
                cand("a", Scope::Project, SkillKind::Skill, "/p/a/SKILL.md"),
            ]
        };
        let (skills, shadowed) = resolve(&profile(Clash::LastWins), input());
        assert_eq!(skills[0].location, PathBuf::from("/p/a/SKILL.md"));
        assert_eq!(shadowed[0].location, PathBuf::from("/h/a/SKILL.md"));

        let (skills, shadowed) = resolve(&profile(Clash::KeepAll), input());
        assert_eq!(skills.len(), 2);
        assert!(skills.iter().all(|s| s.status.ambiguous));
        assert!(shadowed.is_empty());
    }

    #[test]
    fn skill_beats_command_whatever_the_order() {
        let mut p = profile(Clash::FirstWins);
        p.skill_beats_command = true;
        let (skills, shadowed) = resolve(
            &p,
            vec![
                cand("deploy", Scope::User, SkillKind::Command, "/h/deploy.md"),
                cand(
                    "deploy",
                    Scope::Project,
                    SkillKind::Skill,
                    "/p/deploy/SKILL.md",
                ),
            ],
        );
        assert_eq!(skills[0].kind, SkillKind::Skill);
        assert_eq!(
            shadowed[0].reason,
            "a skill beats a command of the same name"
        );
    }

    #[test]
    fn path_bytes_order_sorts_each_root_and_settles_clashes_in_it() {
        let mut p = profile(Clash::FirstWins);
        p.order = Order::PrecedencePathBytes;
        // As the walk gives them: roots in precedence order, paths by component.
        let (skills, shadowed) = resolve(
            &p,
            vec![
                cand("dup", Scope::Project, SkillKind::Skill, "/p/s/a/SKILL.md"),
                cand("dup", Scope::Project, SkillKind::Skill, "/p/s/a-b/SKILL.md"),
                cand("bom", Scope::Project, SkillKind::Skill, "/p/s/bom/SKILL.md"),
                cand(
                    "bom-cr",
                    Scope::Project,
                    SkillKind::Skill,
                    "/p/s/bom-cr/SKILL.md",
                ),
                cand("k", Scope::User, SkillKind::Skill, "/h/s/k/SKILL.md"),
                cand("k-2", Scope::User, SkillKind::Skill, "/h/s/k-2/SKILL.md"),
            ]
            .into_iter()
            .map(|mut c| {
                c.source = c.location.ancestors().nth(2).unwrap().into();
                c
            })
            .collect(),
        );
        let ids: Vec<_> = skills.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["dup", "bom-cr", "bom", "k-2", "k"]);
        assert_eq!(skills[0].location, PathBuf::from("/p/s/a-b/SKILL.md"));
        assert_eq!(shadowed[0].location, PathBuf::from("/p/s/a/SKILL.md"));
    }

    #[test]
    fn nested_clash_gets_directory_qualified_id() {
        let mut nested = cand(
            "deploy",
            Scope::Project,
            SkillKind::Skill,
            "/p/apps/web/.claude/skills/deploy/SKILL.md",
        );
        nested.nested_prefix = Some("apps/web".into());
        let mut unique = cand(
            "lint",
            Scope::Project,
            SkillKind::Skill,
            "/p/apps/web/.claude/skills/lint/SKILL.md",
        );
        unique.nested_prefix = Some("apps/web".into());
        let (skills, _) = resolve(
            &profile(Clash::FirstWins),
            vec![
                cand(
                    "deploy",
                    Scope::Project,
                    SkillKind::Skill,
                    "/p/.claude/skills/deploy/SKILL.md",
                ),
                nested,
                unique,
            ],
        );
        let ids: Vec<_> = skills.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["deploy", "apps/web:deploy", "lint"]);
    }
}
