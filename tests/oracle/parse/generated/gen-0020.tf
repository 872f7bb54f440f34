null = /* c */ 1
