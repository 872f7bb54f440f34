in a {}
