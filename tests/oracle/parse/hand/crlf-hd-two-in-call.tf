a = f(<<A
x
A
, <<B
y
B
)
