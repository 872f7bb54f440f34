a = "x﻿y"
