//! Who played whom: the connected groups that can be rated on one scale, and whether a group's
//! ratings have a finite maximum likelihood.

/// The connected components of the graph with an edge for every game, as lists of engine
/// indices in increasing order, ordered by their smallest index. Engines without games are
/// left out.
pub fn components(n: usize, edges: impl Iterator<Item = (usize, usize)>) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    let mut played = vec![false; n];
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (a, b) in edges {
        played[a] = true;
        played[b] = true;
        let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
        parent[ra.max(rb)] = ra.min(rb);
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut slot = vec![usize::MAX; n];
    for i in (0..n).filter(|&i| played[i]) {
        let r = root(&mut parent, i);
        if slot[r] == usize::MAX {
            slot[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[slot[r]].push(i);
    }
    groups
}

/// Whether every engine of `0..n` reaches every other along edges `a -> b` ("a scored at least
/// a draw against b"). This is Zermelo's and Ford's condition for finite maximum likelihood
/// ratings: without it a group of engines that never dropped a point to the rest (or never
/// took one from them) drifts off to infinity.
pub fn strongly_connected(n: usize, scored: &[(usize, usize)]) -> bool {
    let reach = |forward: bool| {
        let mut seen = vec![false; n];
        let mut stack = vec![0];
        seen[0] = true;
        while let Some(i) = stack.pop() {
            for &(a, b) in scored {
                let (from, to) = if forward { (a, b) } else { (b, a) };
                if from == i && !seen[to] {
                    seen[to] = true;
                    stack.push(to);
                }
            }
        }
        seen.into_iter().all(|s| s)
    };
    n <= 1 || (reach(true) && reach(false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_split_who_never_met_and_skip_who_never_played() {
        let groups = components(6, [(0, 2), (3, 4), (2, 5)].into_iter());
        assert_eq!(groups, vec![vec![0, 2, 5], vec![3, 4]]);
    }

    #[test]
    fn a_cycle_is_strongly_connected_an_unbeaten_engine_is_not() {
        assert!(strongly_connected(3, &[(0, 1), (1, 2), (2, 0)]));
        assert!(!strongly_connected(3, &[(0, 1), (1, 2), (0, 2)]));
        assert!(strongly_connected(1, &[]));
    }
}
