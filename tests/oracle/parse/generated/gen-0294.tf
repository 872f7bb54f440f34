in =
{in = x[*].y
for = "${"}"}"
null = ﻿x} # c
+ /* c */ "%{~ for v in l ~}${v}%{~ endfor ~}" ==
for

d-e
{
  k = 1
}
a = /* c */ "%%%{x}"[*]