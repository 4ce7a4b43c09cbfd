//! The order in which a book's openings are played: file order or shuffled with the seed,
//! rotated to a first opening, then read round by round. The seeded shuffle here is the
//! harness's one shuffle (datagen and the tuner use it too), on the one generator
//! `sable::rng::Rng`.

/// In which order openings are used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    /// File order.
    Sequential,
    /// Shuffled with the match seed.
    Random,
}

/// Puts `openings` in `order` (shuffled with `seed` for [`Order::Random`]) and rotates them so
/// that the `start`-th (1-based, counted after ordering, wrapping past the end) comes first.
pub fn arrange<T>(openings: &mut [T], order: Order, seed: u64, start: usize) {
    if openings.is_empty() {
        return;
    }
    if order == Order::Random {
        shuffle(openings, seed);
    }
    let skip = (start.max(1) - 1) % openings.len();
    openings.rotate_left(skip);
}

/// The opening round `round` (0-based) plays from a book of `count`: the book in its order,
/// from its beginning again when the rounds outnumber it. Both games of a pair share it.
pub fn for_round(round: u32, count: usize) -> usize {
    round as usize % count.max(1)
}

/// Fisher-Yates with xorshift64*: reproducible from the seed without another dependency.
pub fn shuffle<T>(items: &mut [T], seed: u64) {
    let state = seed ^ 0x9E37_79B9_7F4A_7C15;
    let mut rng = sable::rng::Rng::new(if state == 0 { 1 } else { state });
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shuffle_is_a_reproducible_permutation() {
        let mut v: Vec<u32> = (0..50).collect();
        shuffle(&mut v, 42);
        let mut w: Vec<u32> = (0..50).collect();
        shuffle(&mut w, 42);
        assert_eq!(v, w);
        assert_ne!(v, (0..50).collect::<Vec<_>>());
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..50).collect::<Vec<_>>());
        let mut x: Vec<u32> = (0..50).collect();
        shuffle(&mut x, 43);
        assert_ne!(v, x, "another seed, another order");
    }

    #[test]
    fn arrange_orders_then_rotates_to_the_start() {
        let mut v: Vec<u32> = (0..10).collect();
        arrange(&mut v, Order::Sequential, 5, 3);
        assert_eq!(v, [2, 3, 4, 5, 6, 7, 8, 9, 0, 1], "the third opening first");
        let mut w: Vec<u32> = (0..10).collect();
        arrange(&mut w, Order::Sequential, 5, 13);
        assert_eq!(w, v, "start wraps past the end");
        let mut shuffled: Vec<u32> = (0..10).collect();
        shuffle(&mut shuffled, 5);
        let mut r: Vec<u32> = (0..10).collect();
        arrange(&mut r, Order::Random, 5, 2);
        assert_eq!(r[..9], shuffled[1..], "shuffled first, then rotated");
        assert_eq!(r[9], shuffled[0]);
        let mut empty: Vec<u32> = Vec::new();
        arrange(&mut empty, Order::Random, 5, 2);
        assert!(empty.is_empty());
    }

    #[test]
    fn rounds_read_the_book_in_order_and_wrap() {
        let picks: Vec<usize> = (0..7).map(|r| for_round(r, 3)).collect();
        assert_eq!(picks, [0, 1, 2, 0, 1, 2, 0]);
        assert_eq!(for_round(4, 0), 0, "no book: every game from the one start");
    }
}
