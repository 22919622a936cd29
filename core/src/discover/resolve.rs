//! Resolve: settle name clashes by the profile's rule and put the winners in the profile's
//! order. Every loser is reported with the winner's location and the reason.

use super::candidates::Candidate;
use super::profile::{Clash, Order, Profile};
use crate::catalog::{Shadowed, Skill, SkillKind, Status};
use std::collections::{HashMap, HashSet};

/// Winners (as skills) and losers.
pub fn resolve(profile: &Profile, candidates: Vec<Candidate>) -> (Vec<Skill>, Vec<Shadowed>) {
    let (regular, nested): (Vec<_>, Vec<_>) = candidates
        .into_iter()
        .enumerate()
        .partition(|(_, c)| c.nested_prefix.is_none());

    // Group by id, remembering each candidate's position in precedence order.
    let mut groups: Vec<Vec<(usize, Candidate)>> = Vec::new();
    let mut by_id: HashMap<String, usize> = HashMap::new();
    for (pos, c) in regular {
        match by_id.get(&c.id) {
            Some(&g) => groups[g].push((pos, c)),
            None => {
                by_id.insert(c.id.clone(), groups.len());
                groups.push(vec![(pos, c)]);
            }
        }
    }

    let mut winners: Vec<(usize, Candidate)> = Vec::new();
    let mut shadowed: Vec<(usize, Shadowed)> = Vec::new();
    for group in groups {
        if profile.clash == Clash::KeepAll {
            winners.extend(group);
            continue;
        }
        let pick = winner_index(profile, &group);
        let mut group = group;
        let winner = group.swap_remove(pick);
        for (pos, loser) in group {
            shadowed.push((
                pos,
                shadow(&loser, &winner.1, reason(profile, &loser, &winner.1)),
            ));
        }
        winners.push(winner);
    }

    // Nested skills: a clash gets the directory-qualified id; a clash of that too loses.
    let mut taken: HashSet<String> = winners.iter().map(|(_, c)| c.id.clone()).collect();
    for (pos, mut c) in nested {
        if taken.contains(&c.id) {
            if let Some(prefix) = &c.nested_prefix {
                c.id = format!("{prefix}:{}", c.id);
            }
        }
        if taken.contains(&c.id) {
            if let Some((_, w)) = winners.iter().find(|(_, w)| w.id == c.id) {
                shadowed.push((
                    pos,
                    shadow(&c, w, "an earlier skill has this id".to_string()),
                ));
            }
            continue;
        }
        taken.insert(c.id.clone());
        winners.push((pos, c));
    }

    match profile.order {
        Order::Precedence => winners.sort_by_key(|(pos, _)| *pos),
        Order::Id => winners.sort_by(|a, b| a.1.id.cmp(&b.1.id).then(a.0.cmp(&b.0))),
        Order::ScopeNamePath => winners.sort_by(|a, b| {
            let key = |c: &Candidate| {
                (
                    profile.scope_rank(c.scope),
                    c.name.clone(),
                    c.location.clone(),
                )
            };
            key(&a.1).cmp(&key(&b.1))
        }),
    }
    shadowed.sort_by_key(|(pos, _)| *pos);

    let mut name_counts: HashMap<&str, usize> = HashMap::new();
    for (_, c) in &winners {
        *name_counts.entry(c.name.as_str()).or_default() += 1;
    }
    let ambiguous: HashSet<String> = name_counts
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(name, _)| name.to_string())
        .collect();
    let skills = winners
        .into_iter()
        .map(|(_, c)| {
            let is_ambiguous = profile.clash == Clash::KeepAll && ambiguous.contains(&c.name);
            into_skill(c, is_ambiguous)
        })
        .collect();
    (skills, shadowed.into_iter().map(|(_, s)| s).collect())
}

fn winner_index(profile: &Profile, group: &[(usize, Candidate)]) -> usize {
    let ordered: Box<dyn Iterator<Item = usize>> = match profile.clash {
        Clash::LastWins => Box::new((0..group.len()).rev()),
        _ => Box::new(0..group.len()),
    };
    let ordered: Vec<usize> = ordered.collect();
    if profile.skill_beats_command {
        if let Some(&i) = ordered
            .iter()
            .find(|&&i| group[i].1.kind == SkillKind::Skill)
        {
            return i;
        }
    }
    ordered.first().copied().unwrap_or(0)
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
    if winner.source == loser.source {
        format!("same name in the same root; the {order} path wins")
    } else {
        format!(
            "same name; the {order} root ({}) wins",
            winner.source.display()
        )
    }
}

fn shadow(loser: &Candidate, winner: &Candidate, reason: String) -> Shadowed {
    Shadowed {
        id: loser.id.clone(),
        name: loser.name.clone(),
        location: loser.location.clone(),
        winner: winner.location.clone(),
        reason,
    }
}

fn into_skill(c: Candidate, ambiguous: bool) -> Skill {
    let mut status = Status::default();
    if ambiguous {
        status.ambiguous = true;
        status
            .reasons
            .push(format!("another skill is also named `{}`", c.name));
    }
    Skill {
        id: c.id,
        name: c.name,
        description: c.description,
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
    use crate::catalog::Scope;
    use std::path::PathBuf;

    fn cand(name: &str, scope: Scope, kind: SkillKind, path: &str) -> Candidate {
        Candidate {
            scope,
            kind,
            source: PathBuf::from(path).parent().unwrap().to_path_buf(),
            location: PathBuf::from(path),
            base_dir: PathBuf::from(path).parent().unwrap().to_path_buf(),
            name: name.into(),
            id: name.into(),
            plugin: None,
            description: String::new(),
            manifest: Default::default(),
            diagnostics: vec![],
            nested_prefix: None,
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
