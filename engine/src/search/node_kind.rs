//! What a parent node passes to a child besides its window and depth: whether a null move is
//! allowed there and whether the child is an expected cut node. A leaf of the search room, so
//! that the root (`iterative.rs`), the move loop (`alphabeta.rs`) and the singular test
//! (`singular.rs`) can all name it.

/// What a parent tells a node besides its window and depth.
#[derive(Clone, Copy, Debug)]
pub(super) struct NodeKind {
    /// A null move may be tried here (not right after one: two in a row prove nothing).
    pub(super) null_ok: bool,
    /// An expected cut node: a zero-window node whose parent expects it to fail high
    /// (Stockfish's `cutNode`); never set on a PV node.
    pub(super) cut: bool,
}

impl NodeKind {
    /// The root and a PV child: a null move allowed, not a cut node.
    pub(super) const PV: NodeKind = NodeKind::after_move(false);

    /// A node reached by a move.
    pub(super) const fn after_move(cut: bool) -> NodeKind {
        NodeKind { null_ok: true, cut }
    }

    /// The node after a null move, or the null move's verification search.
    pub(super) const fn after_null(cut: bool) -> NodeKind {
        NodeKind {
            null_ok: false,
            cut,
        }
    }
}
