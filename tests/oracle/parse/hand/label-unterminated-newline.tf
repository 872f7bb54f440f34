block "abc
" {}
