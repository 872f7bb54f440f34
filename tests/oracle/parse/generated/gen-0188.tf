for = false / "%{ else }"
+ a::b::f()?1e3 - ( -1 ): 1.5e-3
