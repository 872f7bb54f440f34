true /* c */ "${x}" /* c */ null /* c */ { k = 1 }
