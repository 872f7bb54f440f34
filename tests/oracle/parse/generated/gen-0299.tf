in =
{in = x[*].y
for = "${"}"}"
for = ﻿x}
+ /* c */ "%{~ for v in l ~}${v}%{~ endfor ~}" ==
for

d-e
{
  k = 1
}
in =
{in = x[*].y
for = "${"}"}"
for = ﻿x}
+ /* c */ "%{~ for v in l ~}${v}%{~ endfor ~}" ==
for