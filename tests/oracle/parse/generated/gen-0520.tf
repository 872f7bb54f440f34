for "l" a {}
