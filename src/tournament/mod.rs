//! Match scheduling: openings, game pairs with colours swapped, concurrency, resume file.
