a = 1.5e-3?"%{ else }": # c
"%{ else }"
a = 1.5e-3?"%{ else }": # c
"%{ else }"

