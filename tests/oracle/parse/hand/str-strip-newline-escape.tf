a = "a\n ${~ b ~} \nc"
