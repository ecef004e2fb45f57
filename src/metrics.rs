//! Error metrics (being written).
