true /* c */ {
  k = 1
} null = # c
( [{} # c
,
"${~ x ~}" ,
x[*].y ] /* c */ )

