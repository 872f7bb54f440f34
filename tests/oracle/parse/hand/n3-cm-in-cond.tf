a = true /* c */ ? 1 : 2
