a a {}
