null = !!1e3?x[*].y: []
