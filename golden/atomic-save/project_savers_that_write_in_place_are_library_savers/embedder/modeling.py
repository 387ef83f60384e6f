"""The project's own savers, which only hand over to the wrapped objects' library
savers: library savers, in effect."""


class RerankerModel:
    def save_pretrained(self, *args, **kwargs):
        self.tokenizer.save_pretrained(*args, **kwargs)
        return self.model.save_pretrained(*args, **kwargs)

    def save(self, output_dir):
        self.model.save_pretrained(output_dir)

