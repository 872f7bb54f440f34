x = a. * .b
