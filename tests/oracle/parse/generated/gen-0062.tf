in = (
1e3
)
