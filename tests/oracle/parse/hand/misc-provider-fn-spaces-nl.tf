a = provider::x::
f()
