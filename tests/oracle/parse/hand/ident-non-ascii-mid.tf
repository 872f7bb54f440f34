naïve = 1
