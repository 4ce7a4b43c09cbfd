//! Search: iterative deepening, PVS alpha-beta, quiescence, SEE, ordering, TT, time management.
