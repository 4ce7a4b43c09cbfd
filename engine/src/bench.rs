//! Fixed benchmark: positions searched to a fixed depth; the node count is the search signature.
