package dev.modelarmor.client.internal;

import java.util.List;

import dev.modelarmor.client.admin.Template;
import dev.modelarmor.client.admin.TemplateChangeListener;
import dev.modelarmor.client.admin.TemplateOperations;
import org.jspecify.annotations.Nullable;

/**
 * {@link TemplateOperations} that tell a {@link TemplateChangeListener} after every call that may have
 * changed a template, whether it succeeded or not: a create, update or delete whose answer was lost (a
 * timeout, an exhausted retry) may have reached Model Armor all the same.
 */
public final class ListenedTemplateOperations implements TemplateOperations {

	private final TemplateOperations delegate;

	private final String parent;

	private final TemplateChangeListener listener;

	/**
	 * @param delegate the operations that make the calls
	 * @param parent {@code projects/{project}/locations/{location}}
	 * @param listener told of every change
	 */
	public ListenedTemplateOperations(TemplateOperations delegate, String parent, TemplateChangeListener listener) {
		this.delegate = delegate;
		this.parent = parent;
		this.listener = listener;
	}

	@Override
	public List<Template> list() {
		return this.delegate.list();
	}

	@Override
	public List<Template> list(@Nullable String filter, @Nullable String orderBy) {
		return this.delegate.list(filter, orderBy);
	}

	@Override
	public Template get(String templateId) {
		return this.delegate.get(templateId);
	}

	@Override
	public Template create(String templateId, Template template) {
		try {
			return this.delegate.create(templateId, template);
		}
		finally {
			changed(templateId);
		}
	}

	@Override
	public Template update(String templateId, Template template) {
		try {
			return this.delegate.update(templateId, template);
		}
		finally {
			changed(templateId);
		}
	}

	@Override
	public Template update(String templateId, Template template, List<String> updateMask) {
		try {
			return this.delegate.update(templateId, template, updateMask);
		}
		finally {
			changed(templateId);
		}
	}

	@Override
	public void delete(String templateId) {
		try {
			this.delegate.delete(templateId);
		}
		finally {
			changed(templateId);
		}
	}

	private void changed(String templateId) {
		this.listener.templateChanged(this.parent + "/templates/" + templateId);
	}

}
