d-e a {}
