block "$${x}" {}
