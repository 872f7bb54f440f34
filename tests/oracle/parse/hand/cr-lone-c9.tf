// cd
