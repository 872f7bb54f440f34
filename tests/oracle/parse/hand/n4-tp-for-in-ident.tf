a = "%{for x inl}%{endfor}"
