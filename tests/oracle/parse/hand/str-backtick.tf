a = `a`
