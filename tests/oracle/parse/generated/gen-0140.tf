true = /* c */ !!0.5

true = /* c */ !!0.5

