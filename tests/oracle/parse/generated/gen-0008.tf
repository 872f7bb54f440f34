in {}
