null = {null: "%{ else }"}?é:- -"${~ x ~}" # c
