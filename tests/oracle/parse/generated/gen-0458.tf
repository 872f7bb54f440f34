b_c =[null  a‿b  true] a = - -x
