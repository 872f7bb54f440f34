a = <<EOT
$ % $$ %%
EOT
