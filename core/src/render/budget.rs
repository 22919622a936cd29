//! Budget algorithms: decide, per entry, whether it is shown in full, with a shortened
//! description, by name only, or not at all, so the entries fit a limit.
//!
//! The limit covers the skill entries only (each entry's text plus the newline that
//! separates it); a format's fixed frame (headers, guidance, wrapper tags) is not counted,
//! as in Codex and Kode. Costs come from a caller-supplied function of an entry and its
//! [`Shown`] state, so the same algorithms serve character and token budgets.

/// How one entry is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    Full,
    /// Description cut to this many characters.
    Trimmed(usize),
    /// Description dropped entirely.
    NameOnly,
    Omitted,
}

/// The host algorithms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Codex: shorten every description round-robin (one character from each in turn),
    /// then, if even bare names do not fit, drop whole entries from the lowest-priority end.
    TrimThenDrop,
    /// Claude Code: keep every name, drop the descriptions of the least-used skills first;
    /// if bare names still do not fit, drop least-used entries.
    DropDescriptions,
    /// Kode: add entries in order and stop at the first one that does not fit.
    StopAtFirst,
}

/// What the algorithms need to know about one entry (in display order).
#[derive(Clone, Debug)]
pub struct Item {
    pub id: String,
    /// Characters of the full description.
    pub desc_len: usize,
    /// Times used (Claude Code's algorithm drops the least used descriptions first).
    pub usage: u64,
    /// Already shown by name only (Claude Code `skillOverrides: name-only`).
    pub name_only: bool,
}

/// Plan the entries. `cost(i, shown)` is the cost of entry `i` in state `shown` (never
/// called with `Omitted`). With no limit every entry is shown as is.
pub fn plan(
    items: &[Item],
    algorithm: Algorithm,
    limit: Option<usize>,
    cost: &dyn Fn(usize, Shown) -> usize,
) -> Vec<Shown> {
    let mut states: Vec<Shown> = items
        .iter()
        .map(|i| {
            if i.name_only {
                Shown::NameOnly
            } else {
                Shown::Full
            }
        })
        .collect();
    let Some(limit) = limit else {
        return states;
    };
    let total = |states: &[Shown]| -> usize {
        states
            .iter()
            .enumerate()
            .filter(|(_, s)| **s != Shown::Omitted)
            .map(|(i, s)| cost(i, *s))
            .fold(0usize, usize::saturating_add)
    };
    if total(&states) <= limit {
        return states;
    }
    match algorithm {
        Algorithm::TrimThenDrop => trim_then_drop(items, &mut states, limit, cost, &total),
        Algorithm::DropDescriptions => drop_descriptions(items, &mut states, limit, cost),
        Algorithm::StopAtFirst => {
            let mut used = 0usize;
            let mut stopped = false;
            for (i, state) in states.iter_mut().enumerate() {
                if !stopped {
                    let c = cost(i, *state);
                    if used.saturating_add(c) <= limit {
                        used += c;
                        continue;
                    }
                    stopped = true;
                }
                *state = Shown::Omitted;
            }
        }
    }
    states
}

/// The state of an entry after `k` round-robin rounds.
fn after_rounds(item: &Item, k: usize) -> Shown {
    if item.name_only {
        Shown::NameOnly
    } else if k == 0 {
        Shown::Full
    } else {
        Shown::Trimmed(item.desc_len.saturating_sub(k))
    }
}

/// Running total of the shown entries' costs, updated one entry at a time so the
/// algorithms stay linear in the number of entries.
struct Running<'a> {
    cost: &'a dyn Fn(usize, Shown) -> usize,
    each: Vec<usize>,
    sum: usize,
}

impl<'a> Running<'a> {
    fn new(states: &[Shown], cost: &'a dyn Fn(usize, Shown) -> usize) -> Self {
        let each: Vec<usize> = states
            .iter()
            .enumerate()
            .map(|(i, s)| if *s == Shown::Omitted { 0 } else { cost(i, *s) })
            .collect();
        let sum = each.iter().fold(0usize, |a, b| a.saturating_add(*b));
        Running { cost, each, sum }
    }

    fn set(&mut self, states: &mut [Shown], i: usize, shown: Shown) {
        let new = if shown == Shown::Omitted {
            0
        } else {
            (self.cost)(i, shown)
        };
        self.sum = self.sum.saturating_sub(self.each[i]).saturating_add(new);
        self.each[i] = new;
        states[i] = shown;
    }
}

fn trim_then_drop(
    items: &[Item],
    states: &mut [Shown],
    limit: usize,
    cost: &dyn Fn(usize, Shown) -> usize,
    total: &dyn Fn(&[Shown]) -> usize,
) {
    // Whole entries go first when even bare names overflow: lowest priority (last) first.
    let mut bare: Vec<Shown> = items
        .iter()
        .map(|i| after_rounds(i, i.desc_len.max(1)))
        .collect();
    let mut running = Running::new(&bare, cost);
    let mut kept = items.len();
    while kept > 0 && running.sum > limit {
        kept -= 1;
        running.set(&mut bare, kept, Shown::Omitted);
    }
    let max_len = items[..kept].iter().map(|i| i.desc_len).max().unwrap_or(0);
    let at = |k: usize| -> Vec<Shown> {
        (0..items.len())
            .map(|i| {
                if i < kept {
                    after_rounds(&items[i], k)
                } else {
                    Shown::Omitted
                }
            })
            .collect()
    };
    // Cost only falls as rounds remove characters, so the number of full rounds needed can
    // be found by bisection instead of one character at a time.
    let (mut lo, mut hi) = (0usize, max_len);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if total(&at(mid)) <= limit {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let rounds = lo;
    if rounds == 0 {
        states.copy_from_slice(&at(0));
        return;
    }
    // Round `rounds` is only partly needed: take its characters entry by entry, in order.
    let mut current = at(rounds - 1);
    let mut running = Running::new(&current, cost);
    for (i, item) in items.iter().enumerate().take(kept) {
        if running.sum <= limit {
            break;
        }
        if !item.name_only && item.desc_len >= rounds {
            running.set(&mut current, i, after_rounds(item, rounds));
        }
    }
    states.copy_from_slice(&current);
}

fn drop_descriptions(
    items: &[Item],
    states: &mut [Shown],
    limit: usize,
    cost: &dyn Fn(usize, Shown) -> usize,
) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| {
        items[a]
            .usage
            .cmp(&items[b].usage)
            .then_with(|| items[a].id.cmp(&items[b].id))
    });
    let mut running = Running::new(states, cost);
    for next in [Shown::NameOnly, Shown::Omitted] {
        for &i in &order {
            if running.sum <= limit {
                return;
            }
            running.set(states, i, next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(lens: &[usize]) -> Vec<Item> {
        lens.iter()
            .enumerate()
            .map(|(i, &desc_len)| Item {
                id: format!("s{i}"),
                desc_len,
                usage: 0,
                name_only: false,
            })
            .collect()
    }

    /// Entry = 10 characters of frame + description.
    fn cost(items: &[Item]) -> impl Fn(usize, Shown) -> usize + '_ {
        move |i, s| {
            10 + match s {
                Shown::Full => items[i].desc_len,
                Shown::Trimmed(k) => k,
                Shown::NameOnly | Shown::Omitted => 0,
            }
        }
    }

    #[test]
    fn round_robin_trims_evenly() {
        let it = items(&[10, 10, 2]);
        // Full: 52. Limit 44 needs 8 chars: rounds 1-2 take 3+3, round 3 takes 1+1 from the first two.
        let plan = plan(&it, Algorithm::TrimThenDrop, Some(44), &cost(&it));
        assert_eq!(
            plan,
            vec![Shown::Trimmed(7), Shown::Trimmed(7), Shown::Trimmed(0)]
        );
    }

    #[test]
    fn trim_then_drop_from_the_end() {
        let it = items(&[10, 10, 10]);
        let plan = plan(&it, Algorithm::TrimThenDrop, Some(25), &cost(&it));
        assert_eq!(
            plan,
            vec![Shown::Trimmed(2), Shown::Trimmed(3), Shown::Omitted]
        );
        let plan2 = super::plan(&it, Algorithm::TrimThenDrop, Some(5), &cost(&it));
        assert_eq!(plan2, vec![Shown::Omitted; 3]);
    }

    #[test]
    fn least_used_lose_descriptions() {
        let mut it = items(&[10, 10, 10]);
        it[0].usage = 5;
        it[1].usage = 1;
        it[2].usage = 3;
        let plan = plan(&it, Algorithm::DropDescriptions, Some(45), &cost(&it));
        assert_eq!(plan, vec![Shown::Full, Shown::NameOnly, Shown::NameOnly]);
    }

    #[test]
    fn stop_at_first_that_does_not_fit() {
        let it = items(&[5, 50, 1]);
        let plan = plan(&it, Algorithm::StopAtFirst, Some(40), &cost(&it));
        assert_eq!(plan, vec![Shown::Full, Shown::Omitted, Shown::Omitted]);
    }

    #[test]
    fn no_limit_keeps_everything() {
        let it = items(&[5]);
        assert_eq!(
            plan(&it, Algorithm::StopAtFirst, None, &cost(&it)),
            vec![Shown::Full]
        );
    }
}
