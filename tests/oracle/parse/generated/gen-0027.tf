true {}
