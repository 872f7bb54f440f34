d-e {}
