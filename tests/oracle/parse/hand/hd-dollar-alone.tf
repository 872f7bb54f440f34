a = <<EOT
$ % $$ %%
EOT
