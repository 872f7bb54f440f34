true =
{for k, v in {} :p::f(1) => p::f(1)}[*]

a {}
