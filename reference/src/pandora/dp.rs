//! The optimal policy of a small discrete Pandora's Box instance by dynamic programming, in
//! exact rationals — an oracle that knows nothing about indices.
//!
//! State: the set `S` of opened boxes (a bitmask) and the best value in hand `m` (one of the
//! instance's finitely many values, or "nothing" before the first box when there is no outside
//! option). Bellman equation (minimisation):
//!
//! ```text
//! V(S, m) = min( m,  min_{i ∉ S} c_i + Σ_x P(X_i = x)·V(S ∪ {i}, min(m, x)) )
//! ```
//!
//! where stopping (`m`) is unavailable with nothing in hand, and `V(all, m) = m`. The table is
//! filled for every state whose hand value can occur (the outside option, or an atom of an
//! opened box), in decreasing bitmask order so that successors come first.
use super::instance::{Instance, InstanceError};
use super::policy::not_discrete;
use super::work::{number_bits, too_much_work, Progress, WorkLimits, MAX_STATES_CEILING};
use rug::Rational;

/// An action at a DP state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Stop and keep the best value in hand.
    Stop,
    /// Open box `i` (input order).
    Open(usize),
}

/// The solved DP: the optimal value of every reachable state.
#[derive(Clone, Debug)]
pub struct DpSolution {
    instance: Instance,
    /// Distinct possible hand values, sorted; index `values.len()` means "nothing in hand".
    values: Vec<Rational>,
    /// `table[mask·(values.len()+1) + hand]`; `None` for states that cannot occur.
    table: Vec<Option<Rational>>,
}

/// The size of an instance's DP, known before solving it.
#[derive(Clone, Debug, PartialEq)]
pub struct DpSize {
    /// Boxes.
    pub boxes: usize,
    /// Distinct possible hand values (the outside option and every atom).
    pub values: usize,
    /// Table entries, `2^boxes × (values + 1)`.
    pub states: usize,
    /// Bound on the bits of the table's numbers ([`super::work::number_bits`]).
    pub number_bits: u64,
    /// Estimated work: `states × (atoms of all boxes) × number_bits` (an upper bound on the
    /// transitions times the size of their numbers).
    pub work: f64,
}

/// The size of the DP of a discrete instance.
///
/// # Errors
/// A normal box.
pub fn dp_size(instance: &Instance) -> Result<DpSize, InstanceError> {
    let n = instance.boxes().len();
    let mut values: Vec<&Rational> = instance.outside().into_iter().collect();
    let mut atoms = 0usize;
    for (i, b) in instance.boxes().iter().enumerate() {
        let d = b.as_discrete().ok_or_else(|| not_discrete(i))?;
        values.extend(d.atoms().iter().map(|(x, _)| x));
        atoms += d.atoms().len();
    }
    values.sort();
    values.dedup();
    let width = values.len() + 1;
    let states = u32::try_from(n)
        .ok()
        .and_then(|n| 1usize.checked_shl(n))
        .map_or(usize::MAX, |subsets| subsets.saturating_mul(width));
    let number_bits = number_bits(instance);
    Ok(DpSize {
        boxes: n,
        values: values.len(),
        states,
        number_bits,
        work: states as f64 * atoms as f64 * number_bits as f64,
    })
}

/// Solves the DP for a discrete instance within the default [`WorkLimits`].
///
/// # Errors
/// As [`solve_with`].
pub fn solve(instance: &Instance) -> Result<DpSolution, InstanceError> {
    solve_with(instance, &WorkLimits::default(), &mut |_| {})
}

/// Solves the DP for a discrete instance, refusing before any work when its size
/// ([`dp_size`]) exceeds `limits`, and reporting `progress` once per subset of opened boxes.
///
/// # Errors
/// A normal box; more states than `limits.max_states` (or [`MAX_STATES_CEILING`]); more
/// estimated work than `limits.max_work`. The message gives the sizes and the limit (field
/// `"limit"`).
/// # Accuracy
/// Exact. Work: `O(2^n · V · n · a)` rational operations (`V` distinct values, `a` atoms per
/// box) on numbers of up to [`DpSize::number_bits`] bits; 10 boxes × 6 small atoms is a few
/// seconds.
pub fn solve_with(
    instance: &Instance,
    limits: &WorkLimits,
    progress: &mut dyn FnMut(Progress),
) -> Result<DpSolution, InstanceError> {
    let size = dp_size(instance)?;
    let n = size.boxes;
    let max_states = limits.max_states.min(MAX_STATES_CEILING);
    if size.states > max_states {
        return Err(too_much_work(format!(
            "the exact DP needs 2^{n} × {} = {} states (boxes × hand values), above the limit \
             of {max_states}",
            size.values + 1,
            size.states,
        )));
    }
    if size.work > limits.max_work {
        return Err(too_much_work(format!(
            "the exact DP needs about {:.1e} work units ({} states, numbers of up to {} bits), \
             above the limit of {:.1e}",
            size.work, size.states, size.number_bits, limits.max_work
        )));
    }
    let mut values: Vec<Rational> = instance.outside().cloned().into_iter().collect();
    for b in instance.boxes() {
        let d = b.as_discrete().expect("checked discrete");
        values.extend(d.atoms().iter().map(|(x, _)| x.clone()));
    }
    values.sort();
    values.dedup();
    let width = values.len() + 1;
    let position = |v: &Rational| values.binary_search(v).expect("value listed");
    let mut holders = vec![0u32; values.len()];
    for (i, b) in instance.boxes().iter().enumerate() {
        for (x, _) in b.as_discrete().expect("checked discrete").atoms() {
            holders[position(x)] |= 1 << i;
        }
    }
    let outside_position = instance.outside().map(position);
    // Successor hand positions: after[i][h][j] = position of min(values[h], atom j of box i).
    let atom_positions: Vec<Vec<usize>> = instance
        .boxes()
        .iter()
        .map(|b| {
            b.as_discrete()
                .expect("checked discrete")
                .atoms()
                .iter()
                .map(|(x, _)| position(x))
                .collect()
        })
        .collect();
    let mut table: Vec<Option<Rational>> = vec![None; (1usize << n) * width];
    let subsets = 1usize << n;
    for mask in (0..(1u32 << n)).rev() {
        progress(Progress {
            stage: "exact DP",
            done: subsets - 1 - mask as usize,
            total: subsets,
        });
        for hand in 0..width {
            let possible = if hand == values.len() {
                mask == 0 && outside_position.is_none()
            } else {
                holders[hand] & mask != 0 || outside_position == Some(hand)
            };
            if !possible {
                continue;
            }
            let mut best: Option<Rational> = values.get(hand).cloned();
            for (i, b) in instance.boxes().iter().enumerate() {
                if mask & (1 << i) != 0 {
                    continue;
                }
                let next = (mask | (1 << i)) as usize * width;
                let mut q = b.cost().clone();
                let atoms = b.as_discrete().expect("checked discrete").atoms();
                for ((_, p), &xpos) in atoms.iter().zip(&atom_positions[i]) {
                    let after = xpos.min(hand);
                    let v = table[next + after].as_ref().expect("successor filled");
                    q += Rational::from(p * v);
                }
                if best.as_ref().map_or(true, |b| q < *b) {
                    best = Some(q);
                }
            }
            table[mask as usize * width + hand] = best;
        }
    }
    Ok(DpSolution {
        instance: instance.clone(),
        values,
        table,
    })
}

impl DpSolution {
    fn hand_position(&self, hand: Option<&Rational>) -> Option<usize> {
        match hand {
            None => Some(self.values.len()),
            Some(v) => self.values.binary_search(v).ok(),
        }
    }

    /// The optimal expected objective `E[best] + E[cost]` from the start.
    pub fn optimum(&self) -> &Rational {
        let start = self
            .hand_position(self.instance.outside())
            .expect("start listed");
        self.table[start].as_ref().expect("start filled")
    }

    /// The optimal value `V(S, m)` of a state (`mask` = opened boxes, `hand` = best value in
    /// hand, `None` = nothing), or `None` if the state cannot occur.
    pub fn value(&self, mask: u32, hand: Option<&Rational>) -> Option<&Rational> {
        let h = self.hand_position(hand)?;
        let width = self.values.len() + 1;
        self.table.get(mask as usize * width + h)?.as_ref()
    }

    /// Every optimal action at a state (empty if the state cannot occur).
    pub fn optimal_actions(&self, mask: u32, hand: Option<&Rational>) -> Vec<Action> {
        let (Some(v), Some(h)) = (self.value(mask, hand), self.hand_position(hand)) else {
            return Vec::new();
        };
        let width = self.values.len() + 1;
        let mut actions = Vec::new();
        if hand.is_some_and(|m| m == v) {
            actions.push(Action::Stop);
        }
        for (i, b) in self.instance.boxes().iter().enumerate() {
            if mask & (1 << i) != 0 {
                continue;
            }
            let next = (mask | (1 << i)) as usize * width;
            let mut q = b.cost().clone();
            for (x, p) in b.as_discrete().expect("checked discrete").atoms() {
                let xpos = self.values.binary_search(x).expect("value listed");
                let after = xpos.min(h);
                q += Rational::from(p * self.table[next + after].as_ref().expect("filled"));
            }
            if q == *v {
                actions.push(Action::Open(i));
            }
        }
        actions
    }

    /// The optimal actions at the start state.
    pub fn optimal_first_actions(&self) -> Vec<Action> {
        self.optimal_actions(0, self.instance.outside())
    }

    /// Number of states the DP filled (reachable hand values only).
    pub fn state_count(&self) -> usize {
        self.table.iter().filter(|v| v.is_some()).count()
    }
}
