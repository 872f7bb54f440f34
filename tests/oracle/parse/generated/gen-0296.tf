in =
{in = x[*].y
for = "${"}"}"
for = ﻿x} # c
+ /* c */ "%{~ for v in l ~}${v}%{~ endfor ~}" ==
for

d-e
{
  k = 1
}
d-e
{
  k = 1
}