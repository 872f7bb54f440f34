null ="%{ else }" # c
?"%{ else }": /* c */ "${x}"
a = 1.5e-3?"%{ else }": # c
"%{ else }"

