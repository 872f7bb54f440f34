null ="%{ else }" # c
?"%{ else }": /* c */ "${x}"
null =1 ?1.5e-3:1.5e-3
